from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.urls import reverse
from django.utils.html import format_html

from .models import User

if TYPE_CHECKING:  # django-stubs' type arguments: Django's classes take none at run time
    _UserChangeForm = UserChangeForm[User]
    _UserAdmin = BaseUserAdmin[User]
else:
    _UserChangeForm, _UserAdmin = UserChangeForm, BaseUserAdmin


class UserCreationAdminForm(AdminUserCreationForm[User]):
    class Meta:
        model = User
        fields = ("email",)


class UserChangeAdminForm(_UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # Any: Django's form arguments
        super().__init__(*args, **kwargs)
        # Shown as a read-only line with a link instead (UserAdmin.password_state): Django's
        # widget for it is a <div disabled> whose description names an element never drawn.
        self.fields.pop("password", None)


@admin.register(User)
class UserAdmin(_UserAdmin):
    form = UserChangeAdminForm
    add_form = UserCreationAdminForm
    ordering = ["email"]
    list_display = ["email", "display_name", "time_zone", "is_staff", "is_active", "date_joined"]
    list_filter = ["is_staff", "is_superuser", "is_active"]
    search_fields = ["email", "display_name"]
    # Plain multiple selects: the two-pane widget's icons carry ARIA attributes their element
    # may not have.
    filter_horizontal = ()
    readonly_fields = ["password_state", "last_login", "date_joined"]  # kept by the site
    fieldsets = (
        (None, {"fields": ("email", "password_state")}),
        ("Profile", {"fields": ("display_name", "time_zone")}),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "usable_password", "password1", "password2"),
            },
        ),
    )


    @admin.display(description="Password")
    def password_state(self, user: User) -> str:
        if not user.pk:
            return ""
        url = reverse("admin:auth_user_password_change", args=[user.pk])
        state = "set" if user.has_usable_password() else "not set (logs in by a reset link)"
        return format_html('{} (<a href="{}">set a new password</a>)', state, url)
