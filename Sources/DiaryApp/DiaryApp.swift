// The model types a command renders come from the domain modules; the CLI sees them through
// this module, so that it needs no import of the layers below to word what DiaryApp returns.
@_exported import DiaryVault
