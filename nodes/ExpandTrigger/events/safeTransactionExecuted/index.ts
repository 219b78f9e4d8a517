export { description, option } from './description';
export { activateSafeTransactionExecuted as activate } from './activate';
