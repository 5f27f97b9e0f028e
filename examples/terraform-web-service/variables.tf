variable "region" {
  description = "The AWS region to deploy the web service into."
  type        = string
  default     = "eu-west-1"
}

variable "environment" {
  description = "Deployment stage, used in names and tags."
  type        = string
  default     = "staging"

  validation {
    condition     = contains(["staging", "production"], var.environment)
    error_message = "The environment must be \"staging\" or \"production\"."
  }
}

variable "instance_count" {
  description = "How many web servers to run behind the load balancer."
  type        = number
  default     = 2
}
