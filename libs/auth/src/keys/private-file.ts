import { chmod, link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` (and parents) readable by the owner only when it does not exist yet. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Reads a secret file, refusing one that other users can read or write (as ssh does
 * with private keys): a key anyone on the machine can read signs anyone's tokens.
 */
export async function readPrivateFile(path: string): Promise<string> {
  if (process.platform !== 'win32') {
    const info = await stat(path);
    if ((info.mode & 0o077) !== 0) {
      throw new Error(
        `${path} is accessible by other users (mode ${(info.mode & 0o777).toString(8)}); run: chmod 600 ${path}`,
      );
    }
  }
  return readFile(path, 'utf8');
}

/** A temp file next to `path`, written with mode 0600 and flushed to disk. */
async function writeTemp(path: string, content: string): Promise<string> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(temp, PRIVATE_FILE_MODE); // the umask may have narrowed it further, never widened: make it exact
  return temp;
}

/**
 * Writes `content` to `path` only if `path` does not exist, atomically: readers
 * never see a half-written file, and of several processes racing to create it
 * exactly one wins. Returns false when another writer got there first.
 */
export async function createPrivateFileExclusive(path: string, content: string): Promise<boolean> {
  await ensurePrivateDir(dirname(path));
  const temp = await writeTemp(path, content);
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Replaces `path` atomically with `content` (mode 0600). */
export async function replacePrivateFile(path: string, content: string): Promise<void> {
  await ensurePrivateDir(dirname(path));
  const temp = await writeTemp(path, content);
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
