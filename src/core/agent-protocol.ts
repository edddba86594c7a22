/** The protocol an agent states as data (Node's own agents: `'http:'` or `'https:'`); a proxy agent's follows the request. */
export function statedProtocol(agent: unknown): string | undefined {
  const stated: unknown = agent && Object.getOwnPropertyDescriptor(agent, 'protocol')?.value;
  return typeof stated === 'string' ? stated : undefined;
}
