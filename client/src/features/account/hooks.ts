/*
 * The account controller for views: provided by the app, read with useAccount.
 */
import { controllerContext } from '../../hooks/useSelect';
import type { AccountController } from './controller';

const context = controllerContext<AccountController>('AccountController');

export const AccountProvider = context.Provider;
export const useAccount = context.use;
