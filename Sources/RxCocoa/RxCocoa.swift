// `import RxCocoa` brings the relays into scope, as in RxCocoa 6, and RxSwift too, which RxCocoa 6 does
// not: the operators' `callerFile:` default is RxSwift's `#rxCallerFile` macro, and a macro in a default
// argument is looked up where the operator is called. A file that imports only RxCocoa and calls
// `Driver.map` (community libraries' SharedSequence extensions do) must see it.
@_exported import RxRelay
@_exported import RxSwift
