# The emulated router's devices, as `ubus call network.device status` shows them, derived from
# etc/config/network so that they follow every write. The hardware (eth0, eth1, lo) is listed in
# var/emu/netifd/hardware as `<name> <macaddr>` lines; every `device` section adds its device (a
# bridge lists its `ports` as bridge-members and takes its first port's address). A device is up
# while an interface that is up (see netifd.awk) uses it, a bridge also while it has ports; the
# hardware is always up with carrier.
function unquote(text) {
	sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
	if (text ~ /^'.*'$/ || text ~ /^".*"$/) text = substr(text, 2, length(text) - 2)
	return text
}
# A marker file, opened rather than tested by a shell: system() cost each interface of a dump a fork.
function exists(path,    line, found) { found = (getline line < path) >= 0; close(path); return found }
function entry(name, type, up, mac, extra) {
	return "\"" name "\":{\"external\":false,\"present\":true,\"type\":\"" type "\",\"up\":" (up ? "true" : "false") ",\"carrier\":" (up ? "true" : "false") \
		",\"mtu\":" (mtu[name] == "" ? 1500 : mtu[name]) ",\"macaddr\":\"" mac "\"" extra ",\"statistics\":{\"rx_bytes\":0,\"tx_bytes\":0,\"rx_packets\":0,\"tx_packets\":0}}"
}
BEGIN {
	while ((getline line < (state "/hardware")) > 0) { split(line, words, " "); hardware[++nhardware] = words[1]; macaddr[words[1]] = words[2] }
}
/^config[ \t]/ {
	type = unquote($2); name = $3 == "" ? "" : unquote($3); current = ""; kind = type
	if (type == "device") { current = "device" ++ndevices }
	if (type == "interface" && name != "") { current = "interface " name; interfaces[++ninterfaces] = name }
	next
}
current != "" && /^[ \t]*(option|list)[ \t]/ {
	key = $2; sub(/^[ \t]*(option|list)[ \t]+[^ \t]+[ \t]+/, ""); text = unquote($0)
	option[current, key] = option[current, key] (option[current, key] == "" ? "" : " ") text
	next
}
END {
	for (i = 1; i <= ninterfaces; i++) {
		iface = "interface " interfaces[i]
		if (option[iface, "disabled"] != "1" && !exists(state "/" interfaces[i] ".down")) used[option[iface, "device"]] = 1
	}
	printf "{"
	count = 0
	for (i = 1; i <= nhardware; i++) printf "%s%s", (count++ ? "," : ""), entry(hardware[i], "Network device", 1, macaddr[hardware[i]], "")
	for (i = 1; i <= ndevices; i++) {
		device = "device" i; name = option[device, "name"]
		if (name == "" || name in macaddr) continue
		type = option[device, "type"]; mtu[name] = option[device, "mtu"]
		n = split(option[device, "ports"], ports, " ")
		mac = option[device, "macaddr"] != "" ? option[device, "macaddr"] : n ? macaddr[ports[1]] : macaddr[option[device, "ifname"]]
		if (mac == "") mac = "52:54:00:00:00:00"
		extra = ""
		if (type == "bridge") {
			for (j = 1; j <= n; j++) extra = extra (j > 1 ? "," : "") "\"" ports[j] "\""
			extra = ",\"bridge-members\":[" extra "]"
		}
		up = (name in used) || (type == "bridge" && n > 0)
		printf "%s%s", (count++ ? "," : ""), entry(name, type == "bridge" ? "bridge" : type == "8021q" || type == "8021ad" ? "VLAN" : type == "" ? "Network device" : type, up, mac, extra)
	}
	print "}"
}
