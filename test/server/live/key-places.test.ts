import { expect } from 'chai';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import { createKeyPlaces } from '../../../src/server/live/key-places.ts';

describe('createKeyPlaces', () => {
  it('gives a key up to its places, then answers 429 rate_limited with Retry-After, other keys unaffected', () => {
    const places = createKeyPlaces(2);
    places.take('a');
    places.take('a');
    let refused: unknown = null;
    try {
      places.take('a');
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(ApiError);
    expect(refused).to.deep.include({ errorCode: 'rate_limited', status: 429, headers: { 'Retry-After': '1' }, message: 'This key already holds 2 waiting requests on this instance.' });
    places.take('b');
    expect(places.held()).to.equal(3);
  });

  it('gives a place back once, however often its release is called', () => {
    const places = createKeyPlaces(1);
    const release = places.take('a');
    expect(() => places.take('a')).to.throw(ApiError);
    release();
    release();
    expect(places.held()).to.equal(0);
    const again = places.take('a');
    expect(places.held()).to.equal(1);
    // The first release, called again, does not free the place taken since.
    release();
    expect(() => places.take('a')).to.throw(ApiError);
    again();
    expect(places.held()).to.equal(0);
  });

  it('counts the places held by every key, and none once all are given back', () => {
    const places = createKeyPlaces(3);
    const releases = ['a', 'a', 'b', 'c', 'c', 'c'].map((key) => places.take(key));
    expect(places.held()).to.equal(6);
    for (const release of releases) release();
    expect(places.held()).to.equal(0);
  });
});
