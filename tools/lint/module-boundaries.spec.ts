/**
 * Proves the Nx module-boundary rules constrain: each case lints a snippet as if it lived in
 * a given project, through the repository's real ESLint configuration.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

const cases = {
  appUsesUi: ['apps/editor/src/x.ts', "import { toast } from '@wordcut/ui';\nimport { ErrorCode } from '@wordcut/contracts';\nexport { toast, ErrorCode };\n"],
  appImportsService: ['apps/editor/src/x.ts', "import { main } from '@wordcut/gateway';\nexport { main };\n"],
  appImportsMessaging: ['apps/editor/src/x.ts', "import { Messaging } from '@wordcut/messaging';\nexport { Messaging };\n"],
  appImportsPg: ['apps/editor/src/x.ts', "import { Client } from 'pg';\nexport { Client };\n"],
  contractsImportsPlatform: ['libs/contracts/src/x.ts', "import { createLogger } from '@wordcut/platform';\nexport { createLogger };\n"],
  contractsImportsNest: ['libs/contracts/src/x.ts', "import { Injectable } from '@nestjs/common';\nexport { Injectable };\n"],
  contractsImportsZod: ['libs/contracts/src/x.ts', "import { z } from 'zod';\nexport { z };\n"],
  serviceImportsService: ['services/media/src/x.ts', "import { JobStore } from '@wordcut/jobs';\nexport { JobStore };\n"],
  serviceImportsInfra: ['services/media/src/x.ts', "import { Messaging } from '@wordcut/messaging';\nexport { Messaging };\n"],
} as const;

let errors: Record<keyof typeof cases, string[]>;

beforeAll(() => {
  const names = Object.keys(cases) as Array<keyof typeof cases>;
  const input = JSON.stringify(names.map((n) => ({ file: cases[n][0], code: cases[n][1] })));
  const stdout = execFileSync(process.execPath, [path.join(root, 'tools/lint/lint-snippets.mjs')], { input, cwd: root, env: { ...process.env, NX_DAEMON: 'false' } }).toString();
  const out = JSON.parse(stdout.slice(stdout.lastIndexOf('@@lint-snippets@@') + '@@lint-snippets@@'.length)) as string[][];
  errors = Object.fromEntries(names.map((n, i) => [n, out[i]!])) as typeof errors;
}, 120000);

describe('module boundaries', () => {
  it('lets an app use ui and contracts', () => {
    expect(errors.appUsesUi).toEqual([]);
  });

  it('forbids an app to import a service or server-side infrastructure', () => {
    expect(errors.appImportsService).not.toEqual([]);
    expect(errors.appImportsMessaging).not.toEqual([]);
    expect(errors.appImportsPg).not.toEqual([]);
  });

  it('keeps contracts free of everything but zod', () => {
    expect(errors.contractsImportsPlatform).not.toEqual([]);
    expect(errors.contractsImportsNest).not.toEqual([]);
    expect(errors.contractsImportsZod).toEqual([]);
  });

  it('forbids a service to import another service', () => {
    expect(errors.serviceImportsService).not.toEqual([]);
    expect(errors.serviceImportsInfra).toEqual([]);
  });
});
