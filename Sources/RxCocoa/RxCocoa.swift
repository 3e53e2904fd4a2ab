// `import RxCocoa` brings the relays into scope, as in RxCocoa 6, and RxSwift too, which RxCocoa 6 does
// not: a file that imports only RxCocoa (community libraries' SharedSequence extensions do) then also
// sees the `Observable` operators that a shared sequence's `asObservable()` leads to. It makes more code
// compile, never less.
@_exported import RxRelay
@_exported import RxSwift
