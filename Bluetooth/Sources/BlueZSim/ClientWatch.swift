import RxDBus
import RxSwift

extension BlueZSimulation {
    /// Watches the bus for clients leaving (NameOwnerChanged of a unique name to no owner): their
    /// discovery sessions, filters and notification sessions end, as bluetoothd's disconnect watches
    /// end them; their applications and advertisements go (see ``forgetPeripheralClient(_:_:_:)``).
    func watchClients(on endpoint: any DBusEndpoint, run id: Int) -> Disposable {
        let rule = DBusMatchRule(
            sender: DBusStandard.busName, interface: DBusStandard.busName, member: "NameOwnerChanged")
        return endpoint.signals(matching: rule).subscribe(
            onNext: { [weak self] message in
                guard let self, message.body.count == 3, let name = message.body[0].string, name.hasPrefix(":"),
                    message.body[2].string == ""
                else { return }
                transactRun(id) { run, effects in
                    forgetDiscoveryClient(name, &run, &effects)
                    forgetNotifyClient(name, &run, &effects)
                    syncAllRemoteNotify(&run, &effects)
                    forgetPeripheralClient(name, &run, &effects)
                }
            },
            onError: { error in simulationLog("cannot watch clients leaving: \(error)") })
    }
}
