export const S2SP_OPTIONS = Symbol('S2SP_OPTIONS');
export const S2SP_RAW_OPTIONS = Symbol('S2SP_RAW_OPTIONS');
/** @public */
export const S2SP_DATABASE = Symbol('S2SP_DATABASE');
