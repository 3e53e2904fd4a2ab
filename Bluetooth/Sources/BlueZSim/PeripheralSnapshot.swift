import RxDBus

extension BlueZSimulation {
    /// One registration of the peripheral role: the client, the path it registered, and the address
    /// of the virtual peripheral it helps play.
    public struct Registration: Sendable, Equatable {
        public var client: String
        public var path: DBusObjectPath
        public var address: String
        /// Still being read (BlueZ has not answered the registration yet).
        public var isPending: Bool
        /// For an application: its services' UUIDs; for an advertisement: its LocalName, if any.
        public var details: [String]
    }

    /// The registered applications and advertisements, in the order they were registered.
    public var registrations: (applications: [Registration], advertisements: [Registration]) {
        state.withLock { state in
            guard let run = state.run else { return ([], []) }
            let applications = run.peripheral.applications.map { application in
                Registration(
                    client: application.owner, path: application.root,
                    address: virtualPeripheralAddress,
                    isPending: !application.isRegistered, details: application.services.map(\.uuid))
            }
            let advertisements = run.peripheral.advertisements.map { advertisement in
                Registration(
                    client: advertisement.owner, path: advertisement.path,
                    address: virtualPeripheralAddress,
                    isPending: advertisement.pending != nil, details: advertisement.data?.localName.map { [$0] } ?? [])
            }
            return (applications, advertisements)
        }
    }
}
