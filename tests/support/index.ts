export * from './temp-dirs.js';
export * from './wait-for.js';
export * from './mcp-servers.js';
