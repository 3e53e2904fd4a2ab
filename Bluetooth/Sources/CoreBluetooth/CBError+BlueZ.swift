import Foundation

extension CBError {
    /// Linux extra: the ``CBError`` that a D-Bus error from BlueZ stands for, or `nil` when CoreBluetooth
    /// has no code for it.
    ///
    /// | D-Bus error (message)                                                    | Code |
    /// |--------------------------------------------------------------------------|------|
    /// | `NotConnected`, `Failed` (`Not connected`)                               | ``Code/notConnected`` |
    /// | `Failed` (`le-connection-timeout`, `br-connection-timeout`, `br-connection-page-timeout`) | ``Code/connectionTimeout`` |
    /// | `Failed` (`le-connection-abort-by-remote`, `br-connection-aborted-by-remote`) | ``Code/peripheralDisconnected`` |
    /// | `Failed` (`le-connection-abort-by-local`, `br-connection-aborted-by-local`, `br-connection-canceled`) | ``Code/operationCancelled`` |
    /// | `Failed` (`le-connection-concurrent-connection-limit`, `br-connection-concurrent-connection-limit`) | ``Code/connectionLimitReached`` |
    /// | `Failed` (`le-connection-key-missing`, `br-connection-key-missing`)      | ``Code/peerRemovedPairingInformation`` |
    /// | `Failed` (any other `le-connection-` or `br-connection-` reason)          | ``Code/connectionFailed`` |
    /// | `ConnectionAttemptFailed`                                                | ``Code/connectionFailed`` |
    /// | `AuthenticationTimeout`                                                  | ``Code/encryptionTimedOut`` |
    /// | `Failed` (any other message)                                             | ``Code/unknown`` |
    /// | `DoesNotExist`                                                           | ``Code/unknownDevice`` |
    /// | `InvalidArguments`, `InvalidLength`                                      | ``Code/invalidParameters`` |
    /// | `NotSupported`                                                           | ``Code/operationNotSupported`` |
    ///
    /// The connection reasons are the messages `org.bluez.Device1.Connect` fails with. A `Failed` whose
    /// message carries an ATT error, and `InvalidArguments` with BlueZ's `Invalid offset` or
    /// `Invalid Length`, are a GATT server's answers: they give `nil` here and a ``CBATTError`` from
    /// ``CBATTError/init(bluezErrorName:message:isWrite:)``, which a GATT operation should try first (a GATT
    /// `NotSupported` is the server's ``CBATTError/Code/requestNotSupported``). `InProgress`,
    /// `AlreadyConnected`, `AlreadyExists`, `NotReady`, `NotPermitted`, `NotAuthorized`, the other
    /// authentication errors and names from outside `org.bluez.Error` give `nil`.
    ///
    /// - Parameters:
    ///   - name: The D-Bus error name, `org.bluez.Error.Failed`; the name without the `org.bluez.Error.`
    ///     prefix is accepted too.
    ///   - message: The D-Bus error's message, which tells `Failed` errors apart.
    public init?(bluezErrorName name: String, message: String? = nil) {
        let code: Code
        switch BlueZErrorName.short(name) {
        case "NotConnected": code = .notConnected
        case "Failed":
            guard BlueZErrorName.attErrorCode(in: message) == nil else { return nil }
            code = message.map(Self.code(forFailure:)) ?? .unknown
        case "ConnectionAttemptFailed": code = .connectionFailed
        case "AuthenticationTimeout": code = .encryptionTimedOut
        case "DoesNotExist": code = .unknownDevice
        case "InvalidArguments":
            guard message != "Invalid offset", message != "Invalid Length" else { return nil }
            code = .invalidParameters
        case "InvalidLength": code = .invalidParameters
        case "NotSupported": code = .operationNotSupported
        default: return nil
        }
        self.init(code, userInfo: [NSDebugDescriptionErrorKey: message.map { "\(name): \($0)" } ?? name])
    }

    /// The code for the message of an `org.bluez.Error.Failed`.
    private static func code(forFailure message: String) -> Code {
        switch message {
        case "Not connected": .notConnected
        case "le-connection-timeout", "br-connection-timeout", "br-connection-page-timeout": .connectionTimeout
        case "le-connection-abort-by-remote", "br-connection-aborted-by-remote": .peripheralDisconnected
        case "le-connection-abort-by-local", "br-connection-aborted-by-local", "br-connection-canceled":
            .operationCancelled
        case "le-connection-concurrent-connection-limit", "br-connection-concurrent-connection-limit":
            .connectionLimitReached
        case "le-connection-key-missing", "br-connection-key-missing": .peerRemovedPairingInformation
        case _ where message.hasPrefix("le-connection-") || message.hasPrefix("br-connection-"): .connectionFailed
        default: .unknown
        }
    }
}
