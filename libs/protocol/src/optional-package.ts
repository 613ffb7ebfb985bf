/**
 * Loads an optional dependency at the moment a feature needs it, so an app
 * that does not use the feature neither installs nor loads it. When the
 * package is missing, the error names it and the feature that needs it;
 * any other failure while loading it is rethrown as it is.
 *
 * `loadOptionalPackage('@s2sp/database', 'S2spModule\'s default resource store', () => require('@s2sp/database'))`
 * @internal
 */
export function loadOptionalPackage<T>(packageName: string, neededFor: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (isMissingPackage(error, packageName)) {
      throw new OptionalPackageMissingError(packageName, neededFor);
    }
    throw error;
  }
}

/**
 * Thrown by loadOptionalPackage when the package is not installed; its message says what to install.
 * @internal
 */
export class OptionalPackageMissingError extends Error {
  constructor(
    readonly packageName: string,
    neededFor: string,
  ) {
    super(
      `${neededFor} needs the package "${packageName}", which is not installed. Install it: npm install ${packageName}`,
    );
    this.name = 'OptionalPackageMissingError';
  }
}

function isMissingPackage(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    (message.includes(`'${packageName}'`) || message.includes(`'${packageName}/`))
  );
}
