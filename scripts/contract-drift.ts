// Prints every disagreement between the gateway's published JSON Schemas (OpenRPC),
// the S2SP parameters of MCP tools and the s2sp.v1 protos; exits 1 when there is one.
// Run after a build: node dist/scripts/contract-drift.js
import { checkCorrespondence, loadProtoCatalog, publishedCorrespondences } from '../test/support/contract-drift';

const catalog = loadProtoCatalog();
const pairs = publishedCorrespondences();
let count = 0;
for (const pair of pairs) {
  const found = checkCorrespondence(pair, catalog);
  count += found.length;
  console.log(`${found.length === 0 ? 'ok  ' : 'DRIFT'} ${pair.name} <-> ${pair.proto}`);
  for (const disagreement of found)
    console.log(`      [${disagreement.kind}] ${disagreement.at} ${disagreement.detail}`);
}
console.log(count === 0 ? 'no drift' : `${count} disagreement(s)`);
process.exitCode = count === 0 ? 0 : 1;
