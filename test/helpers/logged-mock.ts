/** The mock server on 127.0.0.1 with every request's arrival logged: who sent it (`x-runner`), when, and its answer's status. */
import { createMockService, startMockServer, type MockServiceOptions } from '../../src/testing/index.js';

export interface Arrival {
  runner: string;
  /** Epoch ms. */
  at: number;
  status: number;
}

export async function startLoggedMock(options: MockServiceOptions) {
  const service = createMockService(options);
  const arrivals: Arrival[] = [];
  const handle = service.handle.bind(service);
  service.handle = async (request) => {
    const at = Date.now();
    const response = await handle(request);
    arrivals.push({ runner: request.headers.get('x-runner') ?? '', at, status: response.status });
    return response;
  };
  const server = await startMockServer({ service });
  return {
    server,
    arrivals,
    close: async () => {
      await server.close();
      service.close();
    },
  };
}
