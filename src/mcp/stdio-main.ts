import { serveMcpOverStdio } from './stdio.ts'

// `node --import tsx src/mcp/stdio-main.ts`: the MCP server on stdio without the CLI around it.
await serveMcpOverStdio()
