import RxSwift

/// One interface of an exported object: its properties (the values live here, so that `Get`,
/// `GetAll`, `GetManagedObjects` and `PropertiesChanged` all come from one place) and its methods.
public struct DBusInterface: Sendable {
    public var name: String
    /// The current values, by property name.
    public var properties: [String: DBusValue]
    /// The properties a peer may `Set`; the rest are read-only.
    public var writable: Set<String>
    /// The methods, by member name.
    public var methods: [String: DBusMethod]
    /// The signals the interface emits, by name, with their signatures (for introspection).
    public var signals: [String: String]
    /// Checks (and may reject) a peer's `Set` before the value is stored; throw a ``DBusError``.
    public var willSet: (@Sendable (_ property: String, _ value: DBusValue) throws -> Void)?

    public init(
        name: String, properties: [String: DBusValue] = [:], writable: Set<String> = [],
        methods: [String: DBusMethod] = [:], signals: [String: String] = [:],
        willSet: (@Sendable (_ property: String, _ value: DBusValue) throws -> Void)? = nil
    ) {
        self.name = name
        self.properties = properties
        self.writable = writable
        self.methods = methods
        self.signals = signals
        self.willSet = willSet
    }
}

/// A method of an exported object. The handler runs on the connection's delivery thread; its `Single`
/// may reply later (the call waits, up to the caller's timeout). A ``DBusError`` it fails with is the
/// error reply; any other error becomes `org.freedesktop.DBus.Error.Failed`.
public struct DBusMethod: Sendable {
    public var inSignature: String
    public var outSignature: String
    public var handler: @Sendable (DBusMethodInvocation) -> Single<[DBusValue]>

    public init(
        in inSignature: String = "", out outSignature: String = "",
        handler: @escaping @Sendable (DBusMethodInvocation) -> Single<[DBusValue]>
    ) {
        self.inSignature = inSignature
        self.outSignature = outSignature
        self.handler = handler
    }

    /// A method that answers at once.
    public static func immediate(
        in inSignature: String = "", out outSignature: String = "",
        _ body: @escaping @Sendable (DBusMethodInvocation) throws -> [DBusValue]
    ) -> DBusMethod {
        DBusMethod(in: inSignature, out: outSignature) { invocation in
            Single.deferred { .just(try body(invocation)) }
        }
    }
}

/// A received method call.
public struct DBusMethodInvocation: Sendable {
    public var message: DBusMessage
    public var arguments: [DBusValue] { message.body }
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }

    public init(message: DBusMessage) { self.message = message }

    /// The argument at `index`, or an `InvalidArgs` error naming what was expected.
    public func argument(_ index: Int, _ expected: String) throws -> DBusValue {
        guard index < arguments.count else {
            throw DBusError(name: DBusError.invalidArgs, message: "missing argument \(index): \(expected)")
        }
        return arguments[index]
    }
}
