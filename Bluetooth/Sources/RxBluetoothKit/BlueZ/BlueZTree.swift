import RxDBus
import RxSwift

extension BlueZModel {
    /// BlueZ's object tree, followed for as long as the subscription lives (`GetManagedObjects`, then its
    /// signals), started again each time BlueZ comes onto the bus; `nil` while BlueZ is not on it. What
    /// the central and the peripheral manager both follow: two match rules for the tree, one for BlueZ's
    /// name.
    static func trees(on bus: any DBusEndpoint) -> Observable<DBusObjectTree?> {
        bus.signals(
            matching: DBusMatchRule(
                sender: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                member: "NameOwnerChanged", arg0: BlueZ.service)
        )
        .map { _ in () }
        .startWith(())
        .flatMapLatest { [bus] _ in
            bus.managedObjects(of: BlueZ.service).map(Optional.some).catchAndReturn(nil)
        }
    }

    /// Whether `tree` (a change, a new tree, or BlueZ gone) can have changed the radio's state: only a new
    /// tree or a change of the adapter can.
    func adapterChanged(by tree: DBusObjectTree?) -> Bool {
        switch tree?.change {
        case .propertiesChanged(let path, _, _, _)?, .interfacesAdded(let path, _)?, .interfacesRemoved(let path, _)?:
            path == adapterPath
        case nil:
            true
        }
    }
}
