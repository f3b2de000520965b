# The emulated router's netifd state, as `ubus call network.interface dump` (only="") or
# `ubus call network.interface.<only> status` shows it, derived from etc/config/network so that it
# follows every write: an interface is up unless `disabled '1'` or var/emu/netifd/<name>.down exists;
# a static interface has its configured addresses; what a dynamic protocol learned (dhcp, dhcpv6,
# pppoe) comes from var/emu/netifd/<name>.learned, JSON members spliced in as they are.
function unquote(text) {
	sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
	if (text ~ /^'.*'$/ || text ~ /^".*"$/) text = substr(text, 2, length(text) - 2)
	return text
}
function bits(mask,    parts, n, i, count, byte) {
	if (mask ~ /^[0-9]+$/) return mask + 0
	n = split(mask, parts, "."); count = 0
	for (i = 1; i <= n; i++) { byte = parts[i] + 0; while (byte >= 128) { count++; byte = (byte * 2) % 256 } }
	return count
}
function exists(path) { return system("test -e '" path "'") == 0 }
function learned(name,    path, line, text) {
	path = state "/" name ".learned"; text = ""
	while ((getline line < path) > 0) text = text line
	close(path)
	return text
}
function item(name,    proto, device, up, l3, addresses, n, list, i, address, prefix, out, extra) {
	proto = option[name, "proto"] == "" ? "none" : option[name, "proto"]
	device = option[name, "device"]
	up = option[name, "disabled"] != "1" && !exists(state "/" name ".down")
	l3 = proto == "wireguard" ? name : proto == "pppoe" ? "pppoe-" name : device
	addresses = ""
	if (up && proto == "static") {
		n = split(option[name, "ipaddr"], list, " ")
		for (i = 1; i <= n; i++) {
			address = list[i]; prefix = option[name, "netmask"] == "" ? 32 : bits(option[name, "netmask"])
			if (index(address, "/")) { prefix = bits(substr(address, index(address, "/") + 1)); address = substr(address, 1, index(address, "/") - 1) }
			addresses = addresses (addresses == "" ? "" : ",") "{\"address\":\"" address "\",\"mask\":" prefix "}"
		}
	}
	out = "\"up\":" (up ? "true" : "false") ",\"pending\":" (up ? "false" : "true") ",\"available\":true,\"autostart\":" (option[name, "auto"] == "0" ? "false" : "true") ",\"dynamic\":false"
	if (up) out = out ",\"uptime\":86388,\"l3_device\":\"" l3 "\""
	out = out ",\"proto\":\"" proto "\"" (device == "" ? "" : ",\"device\":\"" device "\"")
	if (up) {
		extra = proto == "static" || proto == "wireguard" || proto == "none" ? "" : learned(name)
		if (extra == "") extra = "\"ipv4-address\":[" addresses "],\"ipv6-address\":[],\"route\":[],\"dns-server\":[],\"dns-search\":[]"
		out = out ",\"metric\":0,\"dns_metric\":0,\"delegation\":true," extra
	}
	return "{" (only == "" ? "\"interface\":\"" name "\"," : "") out ",\"data\":{}}"
}
/^config[ \t]/ {
	type = $2; name = $3 == "" ? "" : unquote($3); current = ""
	if (unquote(type) == "interface" && name != "") { current = name; names[++count] = name }
	next
}
current != "" && /^[ \t]*option[ \t]/ { key = $2; sub(/^[ \t]*option[ \t]+[^ \t]+[ \t]+/, ""); option[current, key] = unquote($0); next }
current != "" && /^[ \t]*list[ \t]/ { key = $2; sub(/^[ \t]*list[ \t]+[^ \t]+[ \t]+/, ""); option[current, key] = option[current, key] (option[current, key] == "" ? "" : " ") unquote($0); next }
END {
	# netifd keeps its interfaces sorted by name.
	for (i = 2; i <= count; i++) for (j = i; j > 1 && names[j - 1] > names[j]; j--) { t = names[j]; names[j] = names[j - 1]; names[j - 1] = t }
	if (only != "") {
		for (i = 1; i <= count; i++) if (names[i] == only) { print item(only); exit 0 }
		exit 4
	}
	printf "{\"interface\":["
	for (i = 1; i <= count; i++) printf "%s%s", (i > 1 ? "," : ""), item(names[i])
	print "]}"
}
