/**
 * The provider's display name in texts such as 'Exporting to {provider}' and 'Uploading N item(s)
 * to {provider}'. Neither the contracts nor libs/ui name the provider, so the product says
 * 'the provider'.
 */
export const PROVIDER_NAME = 'the provider';
