// Entry point of the container image: `docker run <image> agents` runs the
// agents, and so on for each app of scripts/app-entries.ts.
import { join } from 'node:path';
import { APP_ENTRIES, APP_USAGE, isAppName } from './app-entries';

const app = process.argv[2];
if (!isAppName(app)) {
  process.stderr.write(`Which app? Give ${APP_USAGE}${app === undefined ? '' : ` (got "${app}")`}\n`);
  process.exit(2);
}
require(join(__dirname, '..', APP_ENTRIES[app].main));
