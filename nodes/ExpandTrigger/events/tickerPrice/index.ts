export { description, option } from './description';
export { activateTickerPrice as activate } from './activate';
