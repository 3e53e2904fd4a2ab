import RxDBus

extension BlueZSimulation {
    /// `/org/bluez` with AgentManager1. Pairing in the simulation needs no agent, so registrations
    /// are accepted and forgotten; clients such as bluetoothctl register one as they start.
    func makeAgentManagerObject(run id: Int) -> DBusExportedObject {
        let accept = method(in: "o", run: id) { _, _, _, reply, effects in effects.append(reply.succeed()) }
        let agentManager = DBusInterface(
            name: BlueZ.agentManagerInterface,
            methods: [
                "RegisterAgent": method(in: "os", run: id) { _, _, _, reply, effects in effects.append(reply.succeed())
                },
                "UnregisterAgent": accept,
                "RequestDefaultAgent": accept,
            ])
        return DBusExportedObject(path: BlueZ.managerPath, interfaces: [agentManager])
    }
}
