import { expect } from 'chai';
import {
  countsBody, FloorQuestionError, handCount, handCounts, handPage, isHandQuestion, parseCountsQuestion, parseHandQuestion,
} from '../../../bench/floors/floor-questions.ts';

const RECORD = 't.id as "id", t.code as "code", t.name as "name", t.status as "status", c.name as "category", '
  + `to_json(t.created_at at time zone 'UTC')::text as "createdAt", to_json(t.updated_at at time zone 'UTC')::text as "updatedAt"`;
const JOIN = ' left join categories c on c.id = t.category_id and c.brand_id = $1';

describe("the floor's hand-written list questions", () => {
  it('takes a products list to the hand-written SQL when it asks an order, a position by offset, a range or any of', () => {
    expect(isHandQuestion({ limit: '25' })).to.equal(false);
    expect(isHandQuestion({ status: 'approved', after: 'x,y' })).to.equal(false);
    for (const query of [{ order: 'code' }, { offset: '25' }, { 'createdAt[gte]': 'x' }, { 'createdAt[lt]': 'x' }, { status: ['a', 'b'] }]) {
      expect(isHandQuestion(query), JSON.stringify(query)).to.equal(true);
    }
  });

  it('writes newest first after a position as a keyset range read backward, the page and its count', () => {
    const question = parseHandQuestion({ order: '-createdAt', after: '2025-06-01T00:00:00.000001Z,id9', limit: '25' });
    expect(handPage(question, 'b1')).to.deep.equal({
      text: `select ${RECORD} from (select t.* from products t where t.brand_id = $1 and (t.created_at, t.id) < ($2::timestamptz, $3::uuid)`
        + ' order by t.created_at desc, t.id desc limit 26) t' + JOIN + ' order by t.created_at desc, t.id desc',
      values: ['b1', '2025-06-01T00:00:00.000001Z', 'id9'],
      prepare: true,
    });
    expect(handCount(question, 'b1')).to.deep.equal({ text: 'select count(*)::int as "total" from products t where t.brand_id = $1', values: ['b1'], prepare: true });
  });

  it('writes another order as ORDER BY the field, created_at and id, with the OFFSET, and takes the total from the position', () => {
    const question = parseHandQuestion({ order: 'code', offset: '49975', total: '200000', limit: '25' });
    expect(question).to.deep.include({ offset: 49975, total: 200000, limit: 25 });
    expect(handPage(question, 'b1').text).to.equal(
      `select ${RECORD} from (select t.* from products t where t.brand_id = $1 order by t.code, t.created_at, t.id limit 26 offset 49975) t${JOIN} order by t.code, t.created_at, t.id`,
    );
  });

  it('matches any of a status with = any, and a createdAt range unprepared, as the server plans a range per request', () => {
    const anyOf = parseHandQuestion({ status: ['development', 'sampling'], limit: '25' });
    expect(handCount(anyOf, 'b1')).to.deep.equal({
      text: 'select count(*)::int as "total" from products t where t.brand_id = $1 and t.status = any($2::text[])', values: ['b1', ['development', 'sampling']], prepare: true,
    });
    const month = parseHandQuestion({ 'createdAt[gte]': '2024-03-01T00:00:00Z', 'createdAt[lt]': '2024-04-01T00:00:00Z', status: 'approved' });
    expect(handPage(month, 'b1')).to.deep.include({ values: ['b1', ['approved'], '2024-03-01T00:00:00Z', '2024-04-01T00:00:00Z'], prepare: false });
    expect(handPage(month, 'b1').text).to.contain('where t.brand_id = $1 and t.status = any($2::text[]) and t.created_at >= $3::timestamptz and t.created_at < $4::timestamptz order by t.created_at, t.id limit 26)');
  });

  it('counts by status with one GROUP BY, the largest first, and lays the body out as the server does', () => {
    const question = parseCountsQuestion({ by: 'status', status: ['a', 'b'] });
    expect(handCounts(question, 'b1')).to.deep.equal({
      text: 'select t.status as "value", count(*)::int as "count" from products t where t.brand_id = $1 and t.status = any($2::text[]) group by t.status order by 2 desc, 1 asc nulls last',
      values: ['b1', ['a', 'b']],
      prepare: true,
    });
    expect(JSON.stringify(countsBody('status', [{ value: 'a', count: 3 }, { value: null, count: 1 }]))).to.equal(
      '{"by":"status","counts":[{"value":"a","count":3},{"value":null,"count":1}],"otherItems":0,"totalItems":4}',
    );
    const many = Array.from({ length: 1002 }, (_, i) => ({ value: `v${i}`, count: 1 }));
    expect(countsBody('status', many)).to.deep.include({ otherItems: 2, totalItems: 1002 });
    expect(countsBody('status', many).counts).to.have.length(1000);
  });

  it('refuses what it does not answer', () => {
    for (const query of [{ order: 'status' }, { order: 'code', after: 'x,y' }, { after: 'x' }, { after: 'x,y', offset: '5' }, { limit: '0' }, { limit: '101' }, { offset: '-1' }, { order: ['code', 'name'] }, { search: 'x', order: 'code' }]) {
      expect(() => parseHandQuestion(query), JSON.stringify(query)).to.throw(FloorQuestionError);
    }
    for (const query of [{}, { by: 'code' }, { by: 'status', limit: '5' }]) {
      expect(() => parseCountsQuestion(query), JSON.stringify(query)).to.throw(FloorQuestionError);
    }
  });
});
