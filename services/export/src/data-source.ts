import { createDataSource } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { CreateExport1764000000000 } from './migrations/1764000000000-CreateExport';
import { AddUploadSession1764100000000 } from './migrations/1764100000000-AddUploadSession';
import { AddRunningVideoIndex1764200000000 } from './migrations/1764200000000-AddRunningVideoIndex';
import { AddRenderWait1764300000000 } from './migrations/1764300000000-AddRenderWait';
import { AddWebhookRetries1764500000000 } from './migrations/1764500000000-AddWebhookRetries';
import { AddWebhookOrder1764600000000 } from './migrations/1764600000000-AddWebhookOrder';
import { NamespaceProviderOwners1764700000000 } from './migrations/1764700000000-NamespaceProviderOwners';

/** No entities: the stores speak raw SQL (guarded UPDATEs, advisory locks, ON CONFLICT). */
export const exportDataSource = (url: string) =>
  createDataSource({ url, schema: SCHEMA, entities: [], migrations: [CreateExport1764000000000, AddUploadSession1764100000000, AddRunningVideoIndex1764200000000, AddRenderWait1764300000000, AddWebhookRetries1764500000000, AddWebhookOrder1764600000000, NamespaceProviderOwners1764700000000], applicationName: `wordcut-${SERVICE}` });
