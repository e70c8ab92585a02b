import { expect } from 'chai';
import { seedDemo } from '../../src/seed/demo-seed.ts';
import { createTestKey } from '../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { useServer } from '../support/use-server.ts';

/**
 * The walk of docs/domain-model.md over the demo data, by HTTP with a
 * Northwind key: from the product NW-TS-001 to its colourways, SKUs, BOMs,
 * quotes, samples, orders, production, shipments, receipts, invoices and
 * payments, following only ids the previous step returned.
 */

type ApiRecord = Record<string, any>;

describe('the demo data, walked from product NW-TS-001 over HTTP', () => {
  let key: string;

  before(async () => {
    const { db, registry } = await testDatabase();
    await resetDatabase(db);
    expect(await seedDemo({ db, registry })).to.equal(true);
    ({ key } = await createTestKey({ brands: ['northwind'] }));
  });
  const server = useServer();

  /** GET one record (or the brand) with the Northwind key. */
  async function one(path: string): Promise<ApiRecord> {
    const response = await server.request(`/brands/northwind${path}`, { key });
    expect(response.status, `${path}: ${response.text}`).to.equal(200);
    return response.body as ApiRecord;
  }

  /** GET a whole list (one page of up to 100) with the Northwind key; it must not be empty. */
  async function list(path: string): Promise<ApiRecord[]> {
    const separator = path.includes('?') ? '&' : '?';
    const response = await server.request(`/brands/northwind${path}${separator}limit=100`, { key });
    expect(response.status, `${path}: ${response.text}`).to.equal(200);
    expect(response.body.nextCursor, `${path} fits one page`).to.equal(null);
    expect(response.body.items, `${path} is not empty`).to.not.be.empty;
    expect(response.body.totalItems).to.equal(response.body.items.length);
    return response.body.items as ApiRecord[];
  }

  const idsOf = (records: readonly ApiRecord[]): string[] => records.map((record) => record.id as string);

  it('reaches colourways, SKUs, BOMs, quotes, samples, orders, production, shipments, receipts, invoices and payments', async () => {
    // 1. The product, by code, with its colourways, SKUs and BOMs embedded.
    const [product, ...others] = await list('/products?code=NW-TS-001');
    expect(others).to.deep.equal([]);
    expect(product).to.include({ code: 'NW-TS-001', name: 'Everyday Organic Tee', category: 'T-Shirts' });
    const productId = product!.id as string;
    const embedded = await one(`/products/${productId}?include=options,skus,boms,collections,tags,launchWindows`);
    for (const name of ['options', 'skus', 'boms', 'collections', 'tags', 'launchWindows']) {
      expect(embedded[name], name).to.be.an('array').that.is.not.empty;
      for (const child of embedded[name]) expect(child.productId, name).to.equal(productId);
    }

    // 2. Colourways and SKUs.
    const options = await list(`/product-options?productId=${productId}`);
    expect(idsOf(options)).to.have.members(idsOf(embedded.options));
    expect(options.map((option) => option.code)).to.include.members(['NAV', 'OAT']);
    const navy = options.find((option) => option.code === 'NAV')!;
    const navyFull = await one(`/product-options/${navy.id}?include=color,skus,dimensionValues,prices,values`);
    expect(navyFull.color).to.include({ id: navy.colorId, name: 'Navy', hexCode: '#1F2A44' });
    expect(navyFull.dimensionValues).to.have.length(5);
    expect(navyFull.prices.map((price: ApiRecord) => price.priceType)).to.include.members(['cost', 'wholesale', 'retail']);
    expect(navyFull.values).to.have.length(1);
    const skus = await list(`/skus?productId=${productId}`);
    expect(idsOf(skus)).to.have.members(idsOf(embedded.skus));
    for (const sku of skus) expect(idsOf(options)).to.include(sku.productOptionId);
    expect(idsOf(navyFull.skus)).to.have.members(idsOf(skus.filter((sku) => sku.productOptionId === navy.id)));
    const navyM = skus.find((sku) => sku.code === 'NW-TS-001-NAV-M')!;
    expect(navyM.barcode).to.match(/^[0-9]{13}$/);
    expect(idsOf(await list(`/skus?barcode=${navyM.barcode}`))).to.deep.equal([navyM.id]);
    const navyMSizes = await one(`/skus/${navyM.id}?include=dimensionValues,inventory`);
    expect(navyMSizes.dimensionValues).to.have.length(1);
    expect((await one(`/dimension-values/${navyMSizes.dimensionValues[0].dimensionValueId}`)).code).to.equal('M');
    expect(navyMSizes.inventory).to.have.length(1);
    expect(navyMSizes.inventory[0].quantityOnHand).to.equal(120);
    const skuIds = new Set(idsOf(skus));
    const skuCodes = new Set(skus.map((sku) => sku.code as string));

    // 3. BOMs, their sections, components and materials.
    const boms = await list(`/boms?productId=${productId}`);
    expect(idsOf(boms)).to.have.members(idsOf(embedded.boms));
    for (const bom of boms) {
      const full = await one(`/boms/${bom.id}?include=sections,components,skus,productVersion`);
      expect(full.productVersion).to.include({ productId, versionNumber: 2 });
      expect(full.sections.map((section: ApiRecord) => section.name)).to.have.members(['Fabric', 'Trims', 'Packaging']);
      for (const bomSku of full.skus) expect(skuIds.has(bomSku.skuId), 'a BOM SKU of the product').to.equal(true);
      const sections = await list(`/bom-sections?bomId=${bom.id}`);
      expect(idsOf(sections)).to.have.members(idsOf(full.sections));
      const components = await list(`/bom-components?bomId=${bom.id}`);
      expect(idsOf(components)).to.have.members(idsOf(full.components));
      for (const component of components) {
        expect(idsOf(sections)).to.include(component.bomSectionId);
        const material = await one(`/materials/${component.materialId}?include=variants,supplier,unitOfMeasure`);
        expect(material.supplier).to.not.equal(null);
        expect(material.unitOfMeasure).to.not.equal(null);
        if (component.materialVariantId !== null) expect(idsOf(material.variants)).to.include(component.materialVariantId);
      }
      const jersey = components.find((component) => component.placement === 'body and sleeves')!;
      const jerseyFull = await one(`/bom-components/${jersey.id}?include=material,materialVariant,unitOfMeasure`);
      expect(jerseyFull.material).to.include({ code: 'MAT-JER-180', weightGsm: '180.00' });
      expect(jerseyFull.unitOfMeasure).to.include({ code: 'm' });
    }

    // 4. Quotes, their items and price bands.
    const quotes = await list(`/quotes?productId=${productId}`);
    expect(quotes.map((quote) => quote.status)).to.include.members(['accepted', 'rejected']);
    for (const quote of quotes) {
      expect(quote.productId).to.equal(productId);
      const full = await one(`/quotes/${quote.id}?include=supplier,revisions,items,notes`);
      expect(full.supplier.id).to.equal(quote.supplierId);
      expect(full.revisions).to.not.be.empty;
      const items = await list(`/quote-items?quoteId=${quote.id}`);
      expect(idsOf(items)).to.have.members(idsOf(full.items));
      for (const item of items) {
        expect(idsOf(full.revisions)).to.include(item.quoteRevisionId);
        expect(idsOf(options)).to.include(item.productOptionId);
      }
      const latest = full.revisions.reduce((a: ApiRecord, b: ApiRecord) => (b.revisionNumber > a.revisionNumber ? b : a));
      for (const item of items.filter((i) => i.quoteRevisionId === latest.id)) {
        const bands = await list(`/quote-price-bands?quoteItemId=${item.id}`);
        for (const band of bands) expect(band.quoteItemId).to.equal(item.id);
      }
    }

    // 5. Samples and their rounds: rejected, then approved.
    const samples = await list(`/samples?productId=${productId}`);
    for (const sample of samples) {
      const rounds = await list(`/sample-rounds?sampleId=${sample.id}`);
      expect(rounds.map((round) => [round.roundNumber, round.decision])).to.deep.equal([[1, 'rejected'], [2, 'approved']]);
      const reviewed = await one(`/sample-rounds/${rounds[0]!.id}?include=checklistResults`);
      expect(reviewed.checklistResults.map((result: ApiRecord) => result.result)).to.include('fail');
    }

    // 6. Order lines of the product, and their order with its lines embedded.
    const orderItems = await list(`/order-items?productId=${productId}`);
    for (const item of orderItems) expect(skuIds.has(item.skuId)).to.equal(true);
    const orderIds = [...new Set(orderItems.map((item) => item.orderId as string))];
    expect(orderIds).to.have.length(1);
    const order = await one(`/orders/${orderIds[0]}?include=items,amendments,supplier,paymentAgreements`);
    expect(order).to.include({ code: 'PO-2026-0001', currency: 'EUR' });
    expect(order.supplier).to.include({ name: 'Porto Knitwear Lda' });
    expect(idsOf(order.items)).to.have.members(idsOf(orderItems));
    expect(order.amendments).to.not.be.empty;
    const orderItemIds = new Set(idsOf(orderItems));
    const ordered = orderItems.reduce((sum, item) => sum + Number(item.quantity), 0);
    const lineTotal = orderItems.reduce((sum, item) => sum + Number(item.quantity) * Number(item.unitPrice), 0);
    expect(Number(order.totalAmount)).to.be.closeTo(lineTotal, 0.001);

    // 7. Production.
    const runs = await list(`/production-runs?orderId=${order.id}&include=items`);
    for (const run of runs) {
      expect(run.orderId).to.equal(order.id);
      for (const runItem of run.items) expect(orderItemIds.has(runItem.orderItemId)).to.equal(true);
      const runItems = await list(`/production-run-items?productionRunId=${run.id}`);
      expect(idsOf(runItems)).to.have.members(idsOf(run.items));
      const revisions = await list(`/production-run-item-revisions?productionRunItemId=${runItems[0]!.id}`);
      for (const revision of revisions) expect(revision.productionRunItemId).to.equal(runItems[0]!.id);
    }

    // 8. Shipments of the order, and their lines.
    const links = await list(`/order-shipments?orderId=${order.id}`);
    let shipped = 0;
    const shipmentIds: string[] = [];
    for (const link of links) {
      expect(link.orderId).to.equal(order.id);
      const shipment = await one(`/shipments/${link.shipmentId}?include=items,legs,cartons,bookings,packingLists,orders`);
      expect(shipment.id).to.equal(link.shipmentId);
      expect(shipment.legs).to.not.be.empty;
      expect(shipment.cartons).to.not.be.empty;
      expect(shipment.bookings).to.not.be.empty;
      expect(idsOf(shipment.orders)).to.include(link.id);
      shipmentIds.push(shipment.id);
      const items = await list(`/shipment-items?shipmentId=${shipment.id}`);
      expect(idsOf(items)).to.have.members(idsOf(shipment.items));
      for (const item of items) {
        expect(orderItemIds.has(item.orderItemId), 'a line of the order').to.equal(true);
        expect(skuCodes.has(item.sku), 'a SKU code of the product').to.equal(true);
        shipped += Number(item.quantity);
      }
      const lineages = await list(`/shipment-item-lineages?shipmentItemId=${items[0]!.id}`);
      expect(lineages[0]!.orderItemId).to.equal(items[0]!.orderItemId);
    }
    expect(shipped).to.equal(ordered);

    // 9. Goods receipts of the shipments, with their lines embedded.
    let received = 0;
    for (const shipmentId of shipmentIds) {
      const receipts = await list(`/goods-receipts?shipmentId=${shipmentId}&include=lines`);
      for (const receipt of receipts) {
        expect(receipt.shipmentId).to.equal(shipmentId);
        expect(receipt.lines).to.not.be.empty;
        for (const line of receipt.lines) {
          expect(line.goodsReceiptId).to.equal(receipt.id);
          expect(orderItemIds.has(line.orderItemId)).to.equal(true);
          expect(skuIds.has(line.skuId)).to.equal(true);
          if (line.deletedAt === null) received += Number(line.qtyReceived);
        }
        expect(idsOf(await list(`/goods-receipt-lines?goodsReceiptId=${receipt.id}`))).to.have.members(idsOf(receipt.lines));
      }
    }
    expect(received).to.be.greaterThan(0).and.at.most(ordered);
    const navyMLine = orderItems.find((item) => item.skuId === navyM.id)!;
    const navyMReceived = await list(`/goods-receipt-lines?orderItemId=${navyMLine.id}&include=goodsReceipt,sku`);
    expect(navyMReceived[0]!.sku.code).to.equal('NW-TS-001-NAV-M');

    // 10. Invoices of the order, and their lines.
    const invoices = await list(`/invoices?orderId=${order.id}`);
    const invoiceIds: string[] = [];
    for (const invoice of invoices) {
      expect(invoice.orderId).to.equal(order.id);
      const full = await one(`/invoices/${invoice.id}?include=lines,settlements`);
      const lines = await list(`/invoice-lines?invoiceId=${invoice.id}`);
      expect(idsOf(lines)).to.have.members(idsOf(full.lines));
      for (const line of lines) expect(orderItemIds.has(line.orderItemId)).to.equal(true);
      const sum = lines.reduce((total, line) => total + Number(line.amount), 0);
      expect(Number(invoice.subtotalAmount)).to.be.closeTo(sum, 0.001);
      invoiceIds.push(invoice.id);
    }
    const freight = await list(`/invoices?shipmentId=${shipmentIds[0]}&type=freight&include=charges`);
    expect(freight[0]!.charges).to.not.be.empty;

    // 11. Payments: what settled the invoices, and the bank's receipts.
    let paid = 0;
    for (const invoiceId of invoiceIds) {
      const settlements = await list(`/payment-settlements?invoiceId=${invoiceId}`);
      for (const settlement of settlements) {
        expect(settlement.invoiceId).to.equal(invoiceId);
        const payment = await one(`/payments/${settlement.paymentId}?include=settlements,receipts,paymentAgreement`);
        expect(payment.id).to.equal(settlement.paymentId);
        expect(idsOf(payment.settlements)).to.include(settlement.id);
        expect(payment.receipts).to.not.be.empty;
        expect(payment.paymentAgreement.orderId).to.equal(order.id);
        const receipts = await list(`/payment-receipts?paymentId=${payment.id}&include=document`);
        for (const receipt of receipts) {
          expect(receipt.paymentId).to.equal(payment.id);
          expect(receipt.document).to.include({ entityType: 'payment', entityId: payment.id });
        }
        paid += Number(settlement.amount);
      }
    }
    expect(paid).to.be.closeTo(Number(order.totalAmount), 0.001);
  });

  it('attaches the tech pack, bill of lading and invoice files to the records of the walk', async () => {
    const [product] = await list('/products?code=NW-TS-001');
    const versions = await list(`/product-versions?productId=${product!.id}`);
    const current = versions.find((version) => version.status === 'current')!;
    const techPacks = await list(`/documents?entityType=product_version&entityId=${current.id}&include=documentType`);
    expect(techPacks[0]!.documentType).to.include({ code: 'TECHPACK' });

    const [order] = await list('/orders?code=PO-2026-0001');
    const [link] = await list(`/order-shipments?orderId=${order!.id}`);
    const bills = await list(`/documents?entityType=shipment&entityId=${link!.shipmentId}&include=documentType`);
    expect(bills[0]!.documentType).to.include({ code: 'BL' });
    const [packingList] = await list(`/packing-lists?shipmentId=${link!.shipmentId}&include=document,lines`);
    expect(packingList!.document).to.include({ entityType: 'packing_list', entityId: packingList!.id });
    expect(packingList!.lines.reduce((sum: number, line: ApiRecord) => sum + Number(line.quantity), 0)).to.equal(packingList!.totalUnits);

    const [invoice] = await list(`/invoices?orderId=${order!.id}`);
    const files = await list(`/documents?entityType=invoice&entityId=${invoice!.id}&include=documentType`);
    expect(files[0]!.documentType).to.include({ code: 'CINV' });
    const notes = await list(`/notes?entityType=order&entityId=${order!.id}`);
    expect(notes[0]!.content).to.have.property('text').that.is.a('string');
  });

  it('gives the Alpha sizes group a default size curve of 1:2:3:2:1 from XS to XL', async () => {
    const [group] = await list('/dimension-groups?name=Alpha%20sizes&include=defaultCurve,dimensions');
    expect(group!.defaultCurve).to.include({ id: group!.defaultCurveId, dimensionGroupId: group!.id });
    expect(group!.dimensions).to.have.length(1);
    const curve = await one(`/dimension-curves/${group!.defaultCurveId}?include=axes,cells`);
    expect(curve.axes).to.have.length(1);
    const axisValues = await list(`/dimension-curve-axis-values?dimensionCurveAxisId=${curve.axes[0].id}&include=dimensionValue`);
    const sizeOf = new Map(axisValues.map((value) => [value.id, value.dimensionValue.code]));
    const bySize = Object.fromEntries(curve.cells.map((cell: ApiRecord) => [sizeOf.get(cell.primaryAxisValueId), cell.quantity]));
    expect(bySize).to.deep.equal({ XS: 1, S: 2, M: 3, L: 2, XL: 1 });
  });

  it('keeps Southpeak out of reach of the Northwind key', async () => {
    const response = await server.request('/brands/southpeak/products', { key });
    expect(response.status).to.equal(401);
    const search = await server.request('/brands/northwind/products?search=tent', { key });
    expect(search.status, search.text).to.equal(200);
    expect(search.body.totalItems, 'Northwind never lists Southpeak\'s tent').to.equal(0);
    // The tent is there, for a Southpeak key.
    const { key: southpeakKey } = await createTestKey({ brands: ['southpeak'] });
    const theirs = await server.request('/brands/southpeak/products?search=tent', { key: southpeakKey });
    expect(theirs.body.items.map((item: ApiRecord) => item.code)).to.deep.equal(['SP-TN-001']);
  });
});
