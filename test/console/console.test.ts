import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkipReason, launchChromium } from '../support/chromium';
import { slowPlan, startPlatformStack, type PlatformStack } from '../support/platform-stack';
import { findRepoRoot } from '../support/repo-root';
import { ALL_TEST_SCOPES, mintTestToken } from '../support/tokens';

const skip = chromiumSkipReason();
/** S2SP_CONSOLE_SCREENSHOTS=1 writes the screenshots the README and docs/console.md show (docs/images/console-*.png). */
const SCREENSHOTS = process.env.S2SP_CONSOLE_SCREENSHOTS === '1';
const UI_TIMEOUT_MS = 30_000;

/**
 * The console in a real browser against the whole platform, every hop real:
 * sign in (pasted token, then a dev token), the README's task followed live,
 * the savings chart, a slow task cancelled, the resource servers' activity, and
 * refusals for tokens without s2sp:activity:read and without tasks:read. Each
 * test has a page and a caller of its own, so any of them runs alone (--test-name-pattern).
 */
describe('the web console in headless Chromium', { skip }, () => {
  let stack: PlatformStack;
  let browser: Browser;

  before(async () => {
    stack = await startPlatformStack();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  /**
   * A page of its own for one test, closed after it, collecting what the browser reports as
   * errors (a CSP violation or a script error); each test ends by asserting there were none.
   */
  async function newConsolePage(t: TestContext): Promise<ConsolePage> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    t.after(() => page.close());
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors };
  }

  /** A new page on the console, signed in with a pasted token of `subject` (every test caller's scope). */
  async function signedIn(t: TestContext, subject: string): Promise<ConsolePage> {
    const opened = await newConsolePage(t);
    const { page } = opened;
    await page.goto(`${stack.gateway.url}/console`);
    const token = await mintTestToken({ audience: 'gateway', subject, scopes: ALL_TEST_SCOPES });
    await page.getByLabel('Bearer token').fill(`Bearer ${token}`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('subject').filter({ hasText: subject }).waitFor();
    return opened;
  }

  /** A new page on the console, signed in with a dev token minted in the page for `subject` and `scopes`. */
  async function signedInWithDevToken(
    t: TestContext,
    subject: string,
    scopes: readonly string[],
  ): Promise<ConsolePage> {
    const opened = await newConsolePage(t);
    const { page } = opened;
    await page.goto(`${stack.gateway.url}/console`);
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Scopes (space-separated)').fill(scopes.join(' '));
    await page.getByRole('button', { name: 'Mint dev token and sign in' }).click();
    await page.getByTestId('subject').filter({ hasText: subject }).waitFor();
    return opened;
  }

  test('GET /console answers the app under a strict CSP, nothing inline', async (t) => {
    const { page, errors } = await newConsolePage(t);
    const response = await page.goto(`${stack.gateway.url}/console`);
    assert.equal(response?.status(), 200);
    const headers = response.headers();
    assert.match(headers['content-type'] ?? '', /^text\/html/);
    const csp = headers['content-security-policy'] ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"])
      assert.ok(csp.includes(directive), csp);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script');
    await page.getByRole('heading', { name: 'Sign in to the S2SP console' }).waitFor();
    assert.deepEqual(errors, []);
  });

  test('sign in with a pasted token; the session shows its subject', async (t) => {
    const { page, errors } = await signedIn(t, 'alice');
    assert.equal(await page.getByTestId('subject').innerText(), 'alice');
    assert.deepEqual(errors, []);
  });

  test("the README's task, submitted from its template, succeeds in the live step view", async (t) => {
    const { page, errors } = await signedIn(t, 'alice');
    await submitReadmeTask(page);
    const steps = await page.getByTestId('steps').innerText();
    for (const step of ['alerts', 'wind', 'chart', 'weather/get_alerts', 'stats/draw_chart'])
      assert.ok(steps.includes(step), steps);
    assert.match(await page.getByTestId('task-usage').innerText(), /kept out by S2SP: [1-9]\d*/);
    await screenshot(page, 'tasks');
    assert.deepEqual(errors, []);
  });

  test('the task list (agent.listTasks) of a new session shows the task after a refresh, and a click on it opens its live view', async (t) => {
    await submitReadmeTask((await signedIn(t, 'lisa')).page);
    // A new session knows nothing but what the agents list.
    const { page, errors } = await signedIn(t, 'lisa');
    const list = page.getByTestId('task-list');
    await list.getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = list.locator('tbody tr');
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), /succeeded/);
    await rows.first().getByRole('button').click();
    await page.getByTestId('task-status').filter({ hasText: 'succeeded' }).waitFor();
    assert.ok((await page.getByTestId('steps').innerText()).includes('stats/draw_chart'));
    assert.deepEqual(errors, []);
  });

  test('the savings view, reached with the keyboard: no finished task, then a bar pair for the README task and totals of what was kept out', async (t) => {
    const { page, errors } = await signedIn(t, 'sam');
    await focusByTab(page, 'Savings');
    await page.keyboard.press('Enter');
    await page.getByText('No finished task yet').waitFor();
    assert.match(await page.getByTestId('savings-total').innerText(), /^0 finished tasks/);

    await submitReadmeTask(page);
    await page.getByRole('button', { name: 'Savings' }).click();
    await page.getByTestId('savings-chart').waitFor();
    assert.equal(await page.getByTestId('savings-bar-group').count(), 1);
    assert.match(
      await page.getByTestId('savings-total').innerText(),
      /^1 finished task: \d+ tokens in the model's context, [1-9]\d* kept out/,
    );
    await screenshot(page, 'savings');
    assert.deepEqual(errors, []);
  });

  test('a slow task is cancelled (hard) from the live view', async (t) => {
    const { page, errors } = await signedIn(t, 'carl');
    await page.getByRole('button', { name: 'Tasks' }).click();
    await page.getByLabel('Objective').fill('wait in the slow consumer');
    await page.getByLabel(/^Plan/).fill(JSON.stringify(slowPlan(25_000)));
    await page.getByRole('button', { name: 'Submit task' }).click();
    await page.getByTestId('steps').locator('.step-name', { hasText: 'alerts' }).waitFor();
    await page.getByRole('button', { name: 'Cancel now (hard)' }).click();
    await page.getByTestId('task-status').filter({ hasText: 'cancelled' }).waitFor();
    assert.deepEqual(errors, []);
  });

  test('the health view shows the agents circuit and every MCP server with its tools', async (t) => {
    const { page, errors } = await signedIn(t, 'hank');
    await page.getByRole('button', { name: 'Health' }).click();
    await page.getByTestId('agents-circuit').filter({ hasText: 'closed' }).waitFor();
    const apps = await page.getByTestId('health-apps').innerText();
    for (const server of ['weather', 'stats', 'testkit']) assert.ok(apps.includes(`MCP server ${server}`), apps);
    assert.ok((await page.getByTestId('surfaces').innerText()).includes('weather/get_alerts'));
    await screenshot(page, 'health');
    assert.deepEqual(errors, []);
  });

  test("the resources view, reached with the keyboard, shows the weather server's activity: the caller's consumed resource and the bytes served", async (t) => {
    const { page, errors } = await signedIn(t, 'rita');
    await submitReadmeTask(page);
    await focusByTab(page, 'Resources');
    await page.keyboard.press('Enter');
    const table = page.getByTestId('activity-weather');
    await table.waitFor();
    const row = table.locator('tbody tr', { hasText: 'get_alerts' }).filter({ hasText: 'rita' });
    assert.equal(await row.count(), 1, await table.innerText());
    const cells = await row.locator('td').allInnerTexts();
    const [tool, caller, issued, consumed, , , fetches, bytes, lastFetch] = cells;
    assert.deepEqual([tool, caller], ['get_alerts', 'rita']);
    assert.ok(
      Number(issued.replace(/,/g, '')) >= 1 &&
        Number(consumed.replace(/,/g, '')) >= 1 &&
        Number(fetches.replace(/,/g, '')) >= 1,
      cells.join(' | '),
    );
    assert.ok(Number(bytes.replace(/,/g, '')) > 0, cells.join(' | '));
    assert.ok(!Number.isNaN(Date.parse(lastFetch)), cells.join(' | '));
    // The stats and testkit servers offer no resources: said plainly, not as a failure.
    for (const server of ['stats', 'testkit']) {
      await page.getByTestId(`resources-server-${server}`).getByTestId('not-offered').waitFor();
    }
    await screenshot(page, 'resources');
    assert.deepEqual(errors, []);
  });

  test("a dev token without s2sp:activity:read: the resources view shows the weather server's refusal naming the scope", async (t) => {
    const { page, errors } = await signedInWithDevToken(
      t,
      'carol',
      ALL_TEST_SCOPES.filter((scope) => scope !== 's2sp:activity:read'),
    );
    await page.getByRole('button', { name: 'Resources' }).click();
    const refusal = page.getByTestId('resources-server-weather').getByTestId('refusal');
    await refusal.waitFor();
    // The gateway passes on the scope the weather server named (data.missing_scopes), so the console can say which to get.
    assert.match(
      await refusal.innerText(),
      /^Refused: Reading the activity of weather \(resources\.read\) needs the scope s2sp:activity:read, which this token does not have\./,
    );
    assert.equal(await page.getByTestId('activity-weather').count(), 0);
    // A refusal is an HTTP 200 JSON-RPC answer: nothing the browser logs as failed.
    assert.deepEqual(errors, []);
  });

  test('a dev token without tasks:read: the task is submitted, and following it is clearly refused', async (t) => {
    const { page, errors } = await signedInWithDevToken(
      t,
      'bob',
      ALL_TEST_SCOPES.filter((scope) => scope !== 'tasks:read'),
    );
    const listRefusal = page.getByTestId('refusal').filter({ hasText: 'Listing your tasks' });
    await listRefusal.waitFor();
    assert.match(
      await listRefusal.innerText(),
      /Refused: Listing your tasks \(agent.listTasks\) needs the scope tasks:read/,
    );
    await page.getByRole('button', { name: 'Submit task' }).click();
    const refusal = page.getByTestId('refusal').filter({ hasNotText: 'Listing your tasks' });
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /Refused:.*needs the scope tasks:read/);
    await screenshot(page, 'refusal');
    assert.deepEqual(errors, []);
  });
});

interface ConsolePage {
  page: Page;
  /** What the browser reported as errors on this page. */
  errors: string[];
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS)
    await page.screenshot({
      path: join(findRepoRoot(__dirname), 'docs', 'images', `console-${name}.png`),
      fullPage: true,
    });
}

/** Submits the README's task (the tasks view's default template) and waits for it to succeed in the live view. */
async function submitReadmeTask(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Tasks' }).click();
  await page.getByRole('button', { name: 'Submit task' }).click();
  await page.getByTestId('task-status').filter({ hasText: 'succeeded' }).waitFor();
}

/** Presses Tab until the focused element is the control named `name` (real buttons are in the tab order). */
async function focusByTab(page: Page, name: string): Promise<void> {
  await page.evaluate('document.activeElement instanceof HTMLElement && document.activeElement.blur()');
  for (let presses = 0; presses < 20; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate('document.activeElement?.textContent?.trim() ?? ""');
    if (focused === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}
