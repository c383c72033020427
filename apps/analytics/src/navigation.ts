/** Logout returns to the home page (a full load: the dashboard's data leaves with it). */
export function goHome(): void {
  window.location.assign('/');
}
