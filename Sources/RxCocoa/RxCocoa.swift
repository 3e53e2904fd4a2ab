// `import RxCocoa` brings the relays into scope, as in RxCocoa 6 (which re-exports RxRelay, not RxSwift:
// code that names `Observable` or `Disposable` imports RxSwift as well).
@_exported import RxRelay
