# The emulated router's wireless state, as `ubus call network.wireless status` shows it, derived from
# etc/config/wireless so that it follows every write: a radio is up unless `disabled '1'` or it has
# no enabled interface; an enabled interface of an up radio is set up as phy<N>-<mode><M> (N the
# radio's place among the radios, M its place among the radio's interfaces of that mode) unless it
# names its own `ifname`. `config` echoes the sections' options as netifd does, lists as arrays.
function unquote(text) {
	sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
	if (text ~ /^'.*'$/ || text ~ /^".*"$/) text = substr(text, 2, length(text) - 2)
	return text
}
function escaped(text) { gsub(/\\/, "\\\\", text); gsub(/"/, "\\\"", text); return text }
# libuci's name of an anonymous section: cfg, its place in the file and a hash of its type.
function anonymous(type, position,    hash, i) {
	hash = 5381
	for (i = 1; i <= length(type); i++) hash = (hash * 33 + ord[substr(type, i, 1)]) % 4294967296
	return sprintf("cfg%02x%04x", position, hash % 65536)
}
function value(section, key) {
	if (key == "disabled") return option[section, key] == "1" ? "true" : "false"
	if (islist[section, key]) return "[" option[section, key] "]"
	return "\"" escaped(option[section, key]) "\""
}
function config(section,    i, out) {
	out = ""
	for (i = 1; i <= nkeys[section]; i++) out = out (i > 1 ? "," : "") "\"" keys[section, i] "\":" value(section, keys[section, i])
	return "{" out "}"
}
BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
/^config[ \t]/ {
	sections++
	type = unquote($2); name = $3 == "" ? anonymous(type, sections) : unquote($3)
	current = ""
	if (type == "wifi-device") { current = name; radios[++nradios] = name }
	if (type == "wifi-iface") { current = name; ifaces[++nifaces] = name }
	next
}
current != "" && /^[ \t]*(option|list)[ \t]/ {
	kind = $1; key = $2; sub(/^[ \t]*(option|list)[ \t]+[^ \t]+[ \t]+/, ""); text = unquote($0)
	if (!((current, key) in option)) keys[current, ++nkeys[current]] = key
	if (kind == "list" || key == "network") {
		islist[current, key] = 1
		# `option network 'lan wan'` is a list to netifd too.
		n = split(text, words, /[ \t]+/)
		for (i = 1; i <= n; i++) option[current, key] = option[current, key] (option[current, key] == "" ? "" : ",") "\"" escaped(words[i]) "\""
	} else option[current, key] = text
	next
}
END {
	printf "{"
	for (r = 1; r <= nradios; r++) {
		radio = radios[r]; enabled = 0
		for (i = 1; i <= nifaces; i++) if (option[ifaces[i], "device"] == radio && option[ifaces[i], "disabled"] != "1") enabled++
		up = option[radio, "disabled"] != "1" && enabled > 0
		printf "%s\"%s\":{\"up\":%s,\"pending\":false,\"autostart\":true,\"disabled\":%s,\"retry_setup_failed\":false,\"config\":%s,\"interfaces\":[", (r > 1 ? "," : ""), radio, (up ? "true" : "false"), (option[radio, "disabled"] == "1" ? "true" : "false"), config(radio)
		listed = 0; split("", modes)
		for (i = 1; i <= nifaces; i++) {
			iface = ifaces[i]
			if (option[iface, "device"] != radio) continue
			mode = option[iface, "mode"] == "" ? "ap" : option[iface, "mode"]
			ifname = ""
			if (up && option[iface, "disabled"] != "1") ifname = option[iface, "ifname"] != "" ? option[iface, "ifname"] : sprintf("phy%d-%s%d", r - 1, mode, modes[mode]++)
			printf "%s{\"section\":\"%s\",%s\"config\":%s,\"vlans\":[],\"stations\":[]}", (listed++ ? "," : ""), iface, (ifname == "" ? "" : "\"ifname\":\"" ifname "\","), config(iface)
		}
		printf "]}"
	}
	print "}"
}
