/// A value with a stable identity, used to tell a moved or updated value from an inserted one.
///
/// Two values with the same ``identity`` are the same item (or section) in two states; `Equatable`
/// then tells whether its content changed.
public protocol IdentifiableType {
    associatedtype Identity: Hashable

    var identity: Identity { get }
}
