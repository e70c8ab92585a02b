import { expect } from 'chai';
import { indexName } from '../../../src/engine/compile/schema-plan.ts';

describe('indexName', () => {
  it('names an index after its table, columns and kind', () => {
    expect(indexName({ table: 'widgets', columns: ['brand_id', 'code'], suffix: 'key' })).to.equal('widgets_brand_id_code_key');
  });

  it('keeps a long name within Postgres\' 63 bytes, the same every time, and another for other columns', () => {
    const long = indexName({ table: 'shipment_item_lineages', columns: ['brand_id', 'source_shipment_item_id', 'created_at', 'id'], suffix: 'idx' });
    expect(long).to.have.length(63);
    expect(long).to.match(/^shipment_item_lineages_brand_id_source_shipment_it_[0-9a-f]{8}_idx$/);
    expect(indexName({ table: 'shipment_item_lineages', columns: ['brand_id', 'source_shipment_item_id', 'created_at', 'id'], suffix: 'idx' }), 'the same name every time').to.equal(long);
    expect(indexName({ table: 'shipment_item_lineages', columns: ['brand_id', 'source_shipment_item_id', 'created_at', 'idx'], suffix: 'idx' }), 'another name for other columns').to.not.equal(long);
  });

  it('leaves a name of exactly 63 bytes as it is, and shortens one of 64 keeping its kind', () => {
    const at = (length: number) => indexName({ table: 't'.repeat(length - '_c_idx'.length), columns: ['c'], suffix: 'idx' });
    expect(at(63)).to.equal(`${'t'.repeat(57)}_c_idx`);
    expect(at(64)).to.have.length(63).and.match(/_[0-9a-f]{8}_idx$/);
  });
});
