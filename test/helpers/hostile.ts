/** A value whose every inspection throws (`instanceof`, property reads): what a hostile callback may throw. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
