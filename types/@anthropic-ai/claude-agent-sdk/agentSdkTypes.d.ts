export * from './sdk.js'
