import { createDataSource } from '@wordcut/platform';
import { SCHEMA, SERVICE } from './config';
import { CreateLibrary1763700000000 } from './migrations/1763700000000-CreateLibrary';
import { CreateEdits1763800000000 } from './migrations/1763800000000-CreateEdits';
import { CreatePublishing1763900000000 } from './migrations/1763900000000-CreatePublishing';
import { CreateOwnership1764000000000 } from './migrations/1764000000000-CreateOwnership';
import { AddTranscriptWarnings1764100000000 } from './migrations/1764100000000-AddTranscriptWarnings';
import { CreateSilenceAnalyses1764200000000 } from './migrations/1764200000000-CreateSilenceAnalyses';
import { CreateKeyMoments1764300000000 } from './migrations/1764300000000-CreateKeyMoments';
import { CreateOperatorAccess1764400000000 } from './migrations/1764400000000-CreateOperatorAccess';
import { CreateEditVersions1764600000000 } from './migrations/1764600000000-CreateEditVersions';
import { NamespaceProviderOwners1764500000000 } from './migrations/1764500000000-NamespaceProviderOwners';

/** The gateway owns schema `library`; it reads and writes it with SQL through TypeORM's pool. */
export const gatewayDataSource = (url: string, poolSize?: number) =>
  createDataSource({
    url,
    schema: SCHEMA,
    entities: [],
    migrations: [CreateLibrary1763700000000, CreateEdits1763800000000, CreatePublishing1763900000000, CreateOwnership1764000000000, AddTranscriptWarnings1764100000000, CreateSilenceAnalyses1764200000000, CreateKeyMoments1764300000000, CreateOperatorAccess1764400000000, NamespaceProviderOwners1764500000000, CreateEditVersions1764600000000],
    applicationName: `wordcut-${SERVICE}`,
    poolSize,
  });
