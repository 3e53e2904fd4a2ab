import RxSwift

extension DBusEndpoint {
    /// ``DBusEndpoint/requestName(_:)`` through the bus daemon, for connections to a daemon.
    public func requestName(_ name: String) -> Observable<Void> {
        Observable.create { [weak self] observer in
            guard let self else {
                observer.on(.error(DBusError.closed))
                return Disposables.create()
            }
            return BusNames.request(name, on: self, observer: observer)
        }
    }
}

/// Well-known names, asked of the bus daemon (`RequestName` with `DO_NOT_QUEUE`, `ReleaseName`).
enum BusNames {
    private static let doNotQueue: UInt32 = 4

    static func request(_ name: String, on endpoint: any DBusEndpoint, observer: AnyObserver<Void>) -> Disposable {
        let request = endpoint.call(
            destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
            member: "RequestName", arguments: [.string(name), .uint32(doNotQueue)])
        let owned = SingleAssignmentDisposable()
        let subscription = request.subscribe { event in
            switch event {
            case .success(let body):
                // 1: now the primary owner; 4: already was.
                switch body.first?.integer {
                case 1?, 4?:
                    owned.setDisposable(
                        Disposables.create { [weak endpoint] in
                            endpoint?.call(
                                destination: DBusStandard.busName, path: DBusStandard.busPath,
                                interface: DBusStandard.busName, member: "ReleaseName", arguments: [.string(name)]
                            ).forgettingReply()
                        })
                    observer.on(.next(()))
                default:
                    observer.on(
                        .error(
                            DBusError(name: DBusError.accessDenied, message: "\(name) is owned by another connection")))
                }
            case .failure(let error):
                observer.on(.error(error))
            }
        }
        return Disposables.create(subscription, owned)
    }
}
