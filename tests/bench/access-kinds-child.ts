// Runs section 6's monitor measurements in a process of their own and prints them as one JSON line.
// Usage: node --import tsx tests/bench/access-kinds-child.ts ROOTS TRIALS [--no-idle]
import { measureKinds } from './access-kinds.js';

const [roots, trials] = process.argv.slice(2, 4).map(Number) as [number, number];
const result = await measureKinds(roots, trials, !process.argv.includes('--no-idle'));
process.stdout.write(`${JSON.stringify(result)}\n`);
