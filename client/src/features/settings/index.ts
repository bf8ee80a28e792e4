/*
 * Player settings (public): the settings page, the controller with its provider for the app,
 * and the hooks pages use to apply the settings (the board's appearance, the settings
 * themselves, what applies outside any page).
 */
export { SettingsPage } from './SettingsPage';
export { SettingsController, type Settings } from './controller';
export { SettingsProvider, useApplySettings, useBoardAppearance, useSettings, useSettingsController } from './hooks';
