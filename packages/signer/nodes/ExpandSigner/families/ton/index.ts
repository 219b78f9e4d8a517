export * from './standIn';
export * from './addressForm';
export * from './chain';
export * from './status';
