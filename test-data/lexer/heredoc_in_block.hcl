resource "x" "y" {
  user_data = <<-EOF
    #!/bin/bash
    echo "${var.name}"
    %{ if var.on }on%{ endif }
    EOF
  tags = {
    Name = <<EOT
nested
EOT
  }
}
