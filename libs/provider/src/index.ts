export * from './token';
export * from './owner-migration';
export * from './safe-fetch';
export {
  classifyAddress,
  effectivePort,
  hostMatches,
  isIpLiteral,
  parseHostPattern,
  type AddressVerdict,
  type HostPattern,
} from './address-policy';
export * from './client';
export * from './webhook';
