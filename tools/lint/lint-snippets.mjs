// Lints code snippets as if they lived at given paths, through the repository's ESLint config.
// stdin: [{ file, code }]; stdout: [[messages of the boundary rule], ...]
import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// the boundary rule reads Nx's cached project graph and silently skips itself without one
await createProjectGraphAsync({ exitOnError: true });
const eslint = new ESLint({ cwd: root });
let input = '';
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const { file, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  out.push(result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message));
}
// Nx may log to stdout while it computes the project graph: the result follows a marker line
process.stdout.write(`\n@@lint-snippets@@\n${JSON.stringify(out)}\n`);
