export { description, option } from './description';
export { activateTokenTransfer as activate } from './activate';
