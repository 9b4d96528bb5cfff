// An MCP server that fails on purpose, built with the official TypeScript SDK: a tool that
// kills the server mid-call, one that answers with a JSON-RPC error, one that returns 10 MB,
// one that returns six images of 4 MiB, and one well-behaved tool with a strict schema.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'faulty', version: '1.0.0' }, { capabilities: { tools: {} } });
const none = { type: 'object', properties: {} };

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'crash', description: 'Exits in the middle of the call', inputSchema: none },
    { name: 'fail', description: 'Answers with a JSON-RPC error', inputSchema: none },
    { name: 'huge', description: 'Returns 10 MB of text', inputSchema: none },
    { name: 'images', description: 'Returns six images of 4 MiB each', inputSchema: none },
    {
      name: 'add',
      description: 'Adds two integers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  switch (name) {
    case 'crash':
      console.error('faulty: crashing as asked');
      process.exit(1);
      break;
    case 'fail':
      throw new Error('the database is locked');
    case 'huge':
      return { content: [{ type: 'text', text: 'x'.repeat(10 * 1024 * 1024) }] };
    case 'images': {
      const data = 'A'.repeat(4 * 1024 * 1024);
      return { content: Array.from({ length: 6 }, () => ({ type: 'image', mimeType: 'image/png', data })) };
    }
    case 'add':
      return { content: [{ type: 'text', text: String(args.a + args.b) }] };
  }
  throw new Error(`no tool ${name}`);
});

await server.connect(new StdioServerTransport());
