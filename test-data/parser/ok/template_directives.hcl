a = "%{ if x }yes%{ else }no%{ endif }"
b = "%{ for i, v in xs }${i}=${v},%{ endfor }"
c = "%{~ if a ~}%{ if b }x%{ endif }%{~ endif ~}"
