import { startTracing } from '@wordcut/platform';
startTracing('export');

import { runMain } from '@wordcut/platform';
import { startExport } from './app';
import { SERVICE } from './config';

export async function main() {
  return startExport();
}

if (require.main === module) runMain(SERVICE, main);
