import Dispatch
import RxDBus
import RxSwift

/// The bus a manager has when the system bus could not be reached: every call and subscription fails
/// with the reason, so the manager's state is `unsupported` and its operations say why.
final class UnreachableBus: DBusEndpoint, Sendable {
    let error: DBusError
    var uniqueName: String { "" }

    init(error: DBusError) { self.error = error }

    func call(_ message: DBusMessage, timeout: DispatchTimeInterval) -> Single<[DBusValue]> { .error(error) }
    func signals(matching rule: DBusMatchRule) -> Observable<DBusMessage> { .error(error) }
    func send(_ message: DBusMessage) {}
    func export(_ object: DBusExportedObject) throws -> Disposable { throw error }
    func exportObjectManager(at path: DBusObjectPath) -> Disposable { Disposables.create() }
    func requestName(_ name: String) -> Observable<Void> { .error(error) }
}
