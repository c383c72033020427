/** A toast button that reloads the page, for data the page holds that the server no longer has. */
export const REFRESH_ACTION = { label: 'Refresh Page', altText: 'Reload the page to load the latest data', onClick: () => window.location.reload() };
