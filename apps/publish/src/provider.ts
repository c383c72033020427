/**
 * The provider's display name in texts such as 'Exporting to {provider}' and 'Uploading N item(s)
 * to {provider}'. Seed 001 does not reproduce the provider's real name and neither the contracts
 * nor libs/ui define one, so the product says 'the provider'.
 */
export const PROVIDER_NAME = 'the provider';
