export { description, option } from './description';
export { activateNewBlock as activate } from './activate';
