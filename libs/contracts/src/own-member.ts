/**
 * Sets `key` as an own enumerable member of `target`. Plain assignment would
 * run the `__proto__` setter for a member of that name, which JSON allows:
 * the member would vanish and the object's prototype change instead.
 */
export function setOwnMember<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
