export { ApiError, apiFetch, apiJson, describeError, getQueryFn, isApiError, readJson, throwIfNotOk } from './api';
export type { ApiFetchInit, UnauthorizedBehavior } from './api';
export { createQueryClient } from './queryClient';
export {
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TOAST_SWIPE_THRESHOLD,
  Toaster,
  dismissToast,
  getToasts,
  toast,
  useToasts,
} from './toast';
export type { ToastHandle, ToastInput, ToastItem, ToastVariant } from './toast';
export { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, Tooltip, TooltipProvider } from './tooltip';
export type { TooltipProps } from './tooltip';
export { REMOTE_EXPOSE, REMOTE_LABELS, REMOTE_NAMES, containerName } from './remote';
export type { RemoteModule, RemoteName, RemoteProps } from './remote';
export {
  QUOTA_PATH,
  REFRESH_TOKEN_PATH,
  SESSION_TOKEN_KEY,
  bearerHeaders,
  getSessionToken,
  refreshSessionToken,
  refreshSessionUsage,
  sessionStore,
  startTokenRefresh,
  usageFromSnapshot,
  useSession,
} from './session';
export type { SessionExtra, SessionState, TokenRefreshOptions } from './session';
export { EMPTY_EDITOR_STATE, VERSION_ANNOUNCE_TIMEOUT_MS, editorBridge, useEditorBridge } from './editorBridge';
export type { BridgeMute, BridgeMuteLevel, BridgeVersion, EditorPublishState } from './editorBridge';
export { useRestoreFocus } from './restoreFocus';
export type { RestoreFocusHandlers } from './restoreFocus';
export {
  GATEWAY_SESSION_KEY,
  GATEWAY_SESSION_PATH,
  GATEWAY_SESSION_REFRESH_PATH,
  clearGatewaySession,
  currentBearerToken,
  ensureGatewaySession,
  gatewaySessionToken,
  refreshGatewaySession,
  startGatewaySessionRefresh,
} from './gatewaySession';
export type { GatewaySession } from './gatewaySession';
export { createStore, useStoreValue } from './store';
export type { ReadableStore, Store } from './store';
export { useFollowedJob, useJobPolling } from './jobPolling';
export type { FollowJobOptions, FollowedJob, JobPollingOptions, PollFailure, PollRetry } from './jobPolling';
export { ZoomControl, previewFrame, previewFrameLabel, useElementSize, useFramingGestures } from './framingStage';
