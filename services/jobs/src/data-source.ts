import { createDataSource } from '@wordcut/platform';
import { JobEntity, JobTransitionEntity } from './entities';
import { CreateJobs1732200000000 } from './migrations/1732200000000-CreateJobs';
import { AddJobOwner1795300000000 } from './migrations/1795300000000-AddJobOwner';
import { NamespaceProviderOwners1795400000000 } from './migrations/1795400000000-NamespaceProviderOwners';
import { SCHEMA, SERVICE } from './config';

export const jobsDataSource = (url: string) =>
  createDataSource({
    url,
    schema: SCHEMA,
    entities: [JobEntity, JobTransitionEntity],
    migrations: [CreateJobs1732200000000, AddJobOwner1795300000000, NamespaceProviderOwners1795400000000],
    applicationName: `wordcut-${SERVICE}`,
  });
