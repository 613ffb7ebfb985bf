import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONSUMER_ACCEPT, negotiateDataPlaneFormat } from '../../libs/s2sp/src/data-plane/data-plane-formats';

const ARROW = 'application/vnd.apache.arrow.stream';
const JSON_TYPE = 'application/json';

test('JSON unless the client prefers Arrow', () => {
  assert.equal(negotiateDataPlaneFormat(undefined), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat(''), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat('*/*'), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat('application/json'), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat('text/html, application/xhtml+xml'), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat(ARROW), ARROW);
  assert.equal(negotiateDataPlaneFormat(`Application/Vnd.Apache.Arrow.Stream; q=0.8, ${JSON_TYPE};q=0.5`), ARROW);
  assert.equal(negotiateDataPlaneFormat(`${ARROW};q=0.5, ${JSON_TYPE}`), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat(`${ARROW};q=0, ${JSON_TYPE};q=0.1`), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat(`${ARROW};q=bogus`), JSON_TYPE);
  assert.equal(negotiateDataPlaneFormat(CONSUMER_ACCEPT), ARROW);
});
